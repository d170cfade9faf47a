-- Hooks.
local started = os.time()
