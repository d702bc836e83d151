-- Run by tests/lsp/neovim.test in headless Neovim on a copy of
-- Inputs/mlp-custom-op.mlir: waits for pb-lsp's pipeline diagnostic, fixes
-- the line it points at, waits for the diagnostics to clear, reads the code
-- lenses, runs the stage preview command (:PbStage, which sends
-- polyblocks.showStage) and waits for the preview to be written and opened.
-- Prints what it saw; exits with 1 at the first thing that does not happen.

local timeout = 60000

local function say(text)
  io.stdout:write(text .. '\n')
  io.stdout:flush()
end

local function fail(text)
  say('FAIL: ' .. text)
  vim.cmd('cquit 1')
end

local function run()
  local bufnr = vim.api.nvim_get_current_buf()
  if not vim.wait(timeout, function() return #vim.diagnostic.get(bufnr) > 0 end, 50) then
    return fail('no diagnostics for ' .. vim.api.nvim_buf_get_name(bufnr))
  end
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    say(string.format('diagnostic: line %d, column %d: %s [%s]', d.lnum + 1,
                      d.col + 1, d.message, d.source))
  end

  -- Replace the op S1 cannot lower by one it can.
  local line = vim.diagnostic.get(bufnr)[1].lnum
  vim.api.nvim_buf_set_lines(bufnr, line, line + 1, false, {
    '  %r = tosa.clamp %v {min_val = 0.0 : f32, max_val = 3.0e38 : f32} : '
      .. '(tensor<256x128xf32>) -> tensor<256x128xf32>' })
  if not vim.wait(timeout, function() return #vim.diagnostic.get(bufnr) == 0 end, 50) then
    return fail('the diagnostics did not clear after the fix')
  end
  say('diagnostics cleared')

  vim.lsp.codelens.refresh()
  if not vim.wait(timeout, function()
        return #(vim.lsp.codelens.get(bufnr) or {}) > 0
      end, 50) then
    return fail('no code lenses')
  end
  local titles = {}
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    table.insert(titles, string.format('%s (line %d)', lens.command.title,
                                       lens.range.start.line + 1))
  end
  say('code lenses: ' .. table.concat(titles, ', '))

  -- The stage preview, as a user runs it: the configuration's :PbStage.
  local stage_dir = vim.env.PB_LSP_STAGE_DIR
  vim.cmd('PbStage s2 mlp')
  if not vim.wait(timeout, function()
        return vim.startswith(vim.api.nvim_buf_get_name(0), stage_dir)
      end, 50) then
    return fail('the editor did not open a preview from ' .. stage_dir)
  end
  local path = vim.api.nvim_buf_get_name(0)
  if vim.fn.filereadable(path) ~= 1 then
    return fail('the preview ' .. path .. ' was not written')
  end
  say('opened: ' .. path)
  for _, text in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    if text:find('func.func') or text:find('affine.for') then
      say('preview: ' .. vim.trim(text))
      break
    end
  end
  vim.cmd('qall!')
end

local ok, err = pcall(run)
if not ok then
  fail(tostring(err))
end
