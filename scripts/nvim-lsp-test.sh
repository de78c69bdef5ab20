#!/usr/bin/env bash
# objlint lsp under a real editor client: headless Neovim (Debian's `neovim`,
# 0.7+) starts `objlint lsp` for a copy of testdata/lsp, opens driver.c, waits
# for diagnostics and prints vim.diagnostic.get(). Not part of `cargo test`
# (it needs neovim); .ci/run installs neovim and runs it.
#   scripts/nvim-lsp-test.sh [path/to/objlint]     # default target/debug/objlint
# (NVIM_LSP_DEBUG=1 prints the code-action request and reply)
# Passes when both fallthrough findings arrive with code and source, stop()'s
# on driver.c:12 and scale()'s on inc/fatal.h:10 (inlined), linked to the
# config's rules_doc_url; when Neovim applies the code action offered at
# stop()'s finding (adding report_fatal to `noreturn` in objlint.toml) and
# saves, both findings go. The line check needs DWARF source mapping;
# NO_LINES=1 skips it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$here/target/debug/objlint}")
command -v nvim >/dev/null || { echo "nvim not installed (apt-get install neovim)"; exit 2; }
ws=$(mktemp -d)
trap 'rm -rf "$ws"' EXIT
mkdir -p "$ws/inc" "$ws/obj"
cp "$here/testdata/lsp/driver.c" "$ws/"
cp "$here/testdata/lsp/inc/fatal.h" "$ws/inc/"
cp "$here/testdata/lsp/driver.o" "$ws/obj/driver.o"
printf '# docs\nrules_doc_url = "https://docs.example/objlint/RULES.md#{rule}"\n' > "$ws/objlint.toml"
cat > "$ws/compile_commands.json" <<JSON
[{"directory": "$ws", "file": "driver.c",
  "arguments": ["gcc", "-O2", "-g", "-c", "driver.c", "-o", "obj/driver.o"]}]
JSON
cat > "$ws/init.lua" <<'LUA'
local ws, bin = os.getenv('WS'), os.getenv('OBJLINT')
local out = io.open(ws .. '/diagnostics.txt', 'w')
vim.cmd('edit ' .. ws .. '/driver.c')
-- vim.lsp.start exists from 0.8; start_client + attach works on 0.7 too.
local id = vim.lsp.start_client({ name = 'objlint', cmd = { bin, 'lsp' }, root_dir = ws })
vim.lsp.buf_attach_client(0, id)
local ok = vim.wait(30000, function() return #vim.diagnostic.get() >= 2 end, 50)
vim.wait(500) -- the rest of the burst (other files)
local lines = {}
for _, d in ipairs(vim.diagnostic.get()) do
  local file = vim.api.nvim_buf_get_name(d.bufnr):sub(#ws + 2)
  local msg = d.message:gsub('\n.*', '')
  table.insert(lines, string.format('%s:%d:%d: %s: %s [%s] (%s)', file, d.lnum + 1, d.col + 1,
    vim.diagnostic.severity[d.severity], msg, tostring(d.code), tostring(d.source)))
end
table.sort(lines)
if not ok then out:write('TIMEOUT\n') end
for _, l in ipairs(lines) do out:write(l .. '\n') end
-- The documentation link of each diagnostic, as the server sent it.
for _, d in ipairs(vim.diagnostic.get()) do
  local lsp = d.user_data and d.user_data.lsp or {}
  out:write('href ' .. tostring(lsp.codeDescription and lsp.codeDescription.href) .. '\n')
end
-- The code action at stop()'s finding on driver.c, applied by Neovim and saved.
local here = vim.diagnostic.get(0)
if #here > 0 then
  -- As vim.lsp.buf.code_action() asks: the line's diagnostics in LSP form.
  local lspd = vim.lsp.diagnostic.get_line_diagnostics(0, here[1].lnum)[1]
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(0),
    range = lspd.range,
    context = { diagnostics = { lspd } },
  }
  local res, err = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, 10000)
  if os.getenv('NVIM_LSP_DEBUG') then out:write(vim.inspect(params) .. vim.inspect(res) .. tostring(err) .. '\n') end
  res = res or {}
  for _, r in pairs(res) do
    for _, a in ipairs(r.result or {}) do
      out:write('action ' .. a.title .. '\n')
      vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16')
    end
  end
  vim.cmd('silent! wall')
  local gone = vim.wait(15000, function() return #vim.diagnostic.get() == 0 end, 50)
  out:write('after the action: ' .. #vim.diagnostic.get() .. ' diagnostics' .. (gone and '' or ' (TIMEOUT)') .. '\n')
end
out:close()
vim.lsp.stop_client(id)
vim.wait(2000, function() return vim.lsp.get_client_by_id(id) == nil end, 50)
vim.cmd('qa!')
LUA
WS=$ws OBJLINT=$bin timeout 60 nvim --headless --clean -u "$ws/init.lua" >/dev/null 2>&1 || true
cat "$ws/diagnostics.txt"
got=$(cat "$ws/diagnostics.txt")
fail=0
grep -q '^driver.c:.*ERROR: stop() falls through.*\[fallthrough\] (objlint)' <<<"$got" || fail=1
grep -q 'ERROR: scale() falls through.*\[fallthrough\] (objlint)' <<<"$got" || fail=1
if [ -z "${NO_LINES:-}" ]; then
  grep -q '^driver.c:12:[0-9]*: ERROR: stop()' <<<"$got" || { echo "stop() not on driver.c:12"; fail=1; }
  grep -q '^inc/fatal.h:10:[0-9]*: ERROR: scale()' <<<"$got" || { echo "scale() not on inc/fatal.h:10"; fail=1; }
fi
grep -q '^href https://docs.example/objlint/RULES.md#fallthrough$' <<<"$got" || { echo "no documentation link"; fail=1; }
grep -q '^action Add "report_fatal" to `noreturn` in objlint.toml$' <<<"$got" || { echo "no code action"; fail=1; }
grep -q '^after the action: 0 diagnostics$' <<<"$got" || { echo "the code action did not settle the findings"; fail=1; }
grep -q '^noreturn = \["report_fatal"\]$' "$ws/objlint.toml" || { echo "objlint.toml not edited:"; cat "$ws/objlint.toml"; fail=1; }
grep -q '^# docs$' "$ws/objlint.toml" || { echo "objlint.toml lost its comment"; fail=1; }
[ $fail = 0 ] && echo "OK: neovim shows objlint's diagnostics and applies its fix" || echo "FAIL"
exit $fail
