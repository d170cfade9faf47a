-- Hooks.
local settings = nil
local size = settings.size
