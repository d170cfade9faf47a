-- Lua hooks: what the rules language cannot say, or says less clearly. A data file calls a
-- function here with `hook('name', args...)`; seats, spaces and pieces arrive as numbers from 1.
-- Hooks read and change the game only through the `game` table (see docs/modding/lua-api.md).

local POINTS = { star = 3, pit = -2 }

-- The points for stopping on `space`: 3 on a star, -2 in a pit, 1 elsewhere.
---@param space integer the space a walker stops on
---@return integer points
function landing_points(space)
  return POINTS[game.terrain(space)] or 1
end
