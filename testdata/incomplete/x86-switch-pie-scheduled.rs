pub enum E { A, B, C(u64), D(String), F(u32) }
pub fn kinds(v: &[&&E]) -> Vec<u8> {
    v.iter()
        .map(|e| match ***e {
            E::A => 2,
            E::B => 0,
            E::C(_) => 1,
            E::F(_) => 4,
            E::D(ref s) => s.parse::<f64>().map(|_| 3).unwrap_or(7),
        })
        .collect()
}
