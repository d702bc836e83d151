-- Neovim (0.7 or later) configuration for pb-lsp, as README.md shows it and
-- as tests/lsp/neovim.test runs it. pb-lsp is taken from $PB_LSP, else from
-- PATH; previews go to $PB_LSP_STAGE_DIR when set.
vim.cmd('autocmd BufRead,BufNewFile *.mlir setfiletype mlir')

-- pb-lsp asks the editor to open stage previews with window/showDocument,
-- which Neovim 0.7 does not handle by itself.
local function show_document(_, result)
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.uri_to_fname(result.uri)))
  return { success = true }
end

local client_id
local function attach_pb_lsp(bufnr)
  if not client_id then
    local capabilities = vim.lsp.protocol.make_client_capabilities()
    capabilities.window.showDocument = { support = true }
    client_id = vim.lsp.start_client({
      name = 'pb-lsp',
      cmd = { vim.env.PB_LSP or 'pb-lsp' },
      root_dir = vim.fn.getcwd(),
      offset_encoding = 'utf-8', -- pb-lsp counts columns in bytes
      capabilities = capabilities,
      init_options = { stageDirectory = vim.env.PB_LSP_STAGE_DIR },
      handlers = { ['window/showDocument'] = show_document },
      on_attach = function() vim.lsp.codelens.refresh() end,
    })
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
end

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'mlir',
  callback = function(args) attach_pb_lsp(args.buf) end,
})

-- :PbStage s1|s2|s3|s4|s5|llvm|asm [function] opens the IR of a stage.
vim.api.nvim_create_user_command('PbStage', function(opts)
  vim.lsp.buf.execute_command({
    command = 'polyblocks.showStage',
    arguments = vim.list_extend({ vim.uri_from_bufnr(0) }, opts.fargs),
  })
end, { nargs = '+' })

-- Code lenses (one per stage over each public function): refreshed after
-- each change, run with :lua vim.lsp.codelens.run() on the function's line.
vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged' }, {
  pattern = '*.mlir',
  callback = function()
    local client = client_id and vim.lsp.get_client_by_id(client_id)
    if client and client.initialized then
      vim.lsp.codelens.refresh()
    end
  end,
})
