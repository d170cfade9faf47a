-- Lua hooks: what the rules language cannot say, or says less clearly. A data file calls a
-- function here with `hook('name', args...)`; seats, spaces and pieces arrive as numbers from 1.
-- Hooks read and change the game only through the `game` table (see docs/modding/lua-api.md).

-- The points for capturing a runner on `space`: two on a hill, one elsewhere.
---@param space integer the space the capture happens on
---@return integer points
function capture_value(space)
  if game.terrain(space) == "hill" then
    return 2
  end
  return 1
end
