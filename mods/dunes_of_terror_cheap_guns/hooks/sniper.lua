-- Replaces Dunes of Terror's sniper rifle (this file loads after the base mod's hooks): a 3 now
-- grazes for 10; 4, 5 and 6 still deal 25, 50 and 75.
---@type integer[]
local SNIPER_DAMAGE = { 0, 0, 10, 25, 50, 75 }

---@param shots integer bullets fired (always 1 for the sniper rifle)
---@return integer damage
function sniper_rifle(shots)
  local _, faces = game.roll(shots, 6)
  local damage = 0
  for _, face in ipairs(faces) do damage = damage + SNIPER_DAMAGE[face] end
  return damage
end
