-- Whether a culture has no move left: none of its cells has an empty cell within two steps.
-- A walk over cells and their neighbours' neighbours reads best as a Lua loop.

---@param seat integer the culture's seat number
---@return boolean
function stuck(seat)
  for cell = 1, game.space_count() do
    if game.owner(cell) == seat then
      for _, near in ipairs(game.neighbors(cell)) do
        if game.owner(near) == nil then return false end
        for _, far in ipairs(game.neighbors(near)) do
          if game.owner(far) == nil then return false end
        end
      end
    end
  end
  return true
end
