-- Lua hooks: what the rules language cannot say, or says less clearly. A data file calls a
-- function here with `hook('name', args...)`; seats, spaces and pieces arrive as numbers from 1.
-- Hooks read and change the game only through the `game` table (see docs/modding/lua-api.md).

-- The shore points a newly claimed meadow is worth: 1 when a lake touches it, else 0.
---@param space integer the claimed space
---@return integer points
function shore_points(space)
  for _, neighbour in ipairs(game.neighbors(space)) do
    if game.terrain(neighbour) == "lake" then
      return 1
    end
  end
  return 0
end
