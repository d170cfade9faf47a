-- The two weapons whose damage the rules language does not say directly. Both draw their dice
-- from the game's own stream through game.roll, so games stay reproducible and scenario tests
-- can force the faces.

-- The sniper rifle: one die; 1, 2 or 3 miss, and 4, 5, 6 deal 25, 50 or 75 damage (health is
-- counted in percent, so that is a quarter, half or three quarters of a full character).
---@type integer[]
local SNIPER_DAMAGE = { 0, 0, 0, 25, 50, 75 }

---@param shots integer bullets fired (always 1 for the sniper rifle)
---@return integer damage
function sniper_rifle(shots)
  local _, faces = game.roll(shots, 6)
  local damage = 0
  for _, face in ipairs(faces) do damage = damage + SNIPER_DAMAGE[face] end
  return damage
end

-- The machine gun: roll one die per bullet fired; every die of 3 or less missed. Roll again one
-- die per hit; the sum of that second roll (times the gun's multiplier of 3) is the damage.
---@param shots integer bullets fired, 1 to 5
---@return integer sum of the second roll
function machine_gun(shots)
  local _, faces = game.roll(shots, 6)
  local hits = 0
  for _, face in ipairs(faces) do
    if face >= 4 then hits = hits + 1 end
  end
  if hits == 0 then return 0 end
  local sum = game.roll(hits, 6)
  return sum
end
