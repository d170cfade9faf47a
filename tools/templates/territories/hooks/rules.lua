-- Lua hooks: what the rules language cannot say, or says less clearly. A data file calls a
-- function here with `hook('name', args...)`; seats, spaces and pieces arrive as numbers from 1.
-- Hooks read and change the game only through the `game` table (see docs/modding/lua-api.md).

-- The troops a seat gets at the end of its turn: one per two territories of its largest
-- connected group, and at least one.
---@param seat integer the seat whose turn ends
---@return integer troops
function reinforcements(seat)
  return math.max(1, game.largest_group(seat) // 2)
end
