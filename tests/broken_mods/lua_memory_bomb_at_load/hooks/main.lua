-- Hooks.
local t = {}
local s = 'x'
for i = 1, 64 do
  s = s .. s
  t[i] = s
end
