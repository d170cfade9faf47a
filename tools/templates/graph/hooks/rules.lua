-- Lua hooks: what the rules language cannot say, or says less clearly. A data file calls a
-- function here with `hook('name', args...)`; seats, spaces and pieces arrive as numbers from 1.
-- Hooks read and change the game only through the `game` table (see docs/modding/lua-api.md).

-- The extra influence a seat gets at the start of its turn: 1 for every city it holds.
---@param seat integer the seat whose turn starts
---@return integer influence
function income(seat)
  local cities = 0
  for space = 1, game.space_count() do
    if game.owner(space) == seat and game.terrain(space) == "city" then
      cities = cities + 1
    end
  end
  return cities
end
