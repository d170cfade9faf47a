-- Helpers shared by every test file of this mod (files named `_*.lua` are loaded before each
-- test file): fixed boards, arranging a position, small list utilities.

-- A fixed board from a list of ids and a list of links.
function helpers.board(ids, links)
  local spaces = {}
  for i, id in ipairs(ids) do spaces[i] = { id = id } end
  return { kind = "graph", terrain = "land", spaces = spaces, links = links }
end

-- A line through the ids in order.
function helpers.line(ids)
  local links = {}
  for i = 2, #ids do links[#links + 1] = { ids[i - 1], ids[i] } end
  return helpers.board(ids, links)
end

-- Sets owner and dice of every space ({ a = {1, 3}, ... }; seat 0 = nobody), empties the
-- reserves of seats 1..`seats` and gives seat 1 its turn.
function helpers.arrange(g, layout, seats)
  for space, v in pairs(layout) do
    g:set_owner(space, v[1] ~= 0 and v[1] or nil)
    g:set_counter(space, "dice", v[2])
  end
  for seat = 1, seats do g:set_resource(seat, "reserve", 0) end
  g:set_turn(1)
end

-- The items of a list that satisfy `pred`, in order.
function helpers.find(list, pred)
  local found = {}
  for _, x in ipairs(list) do
    if pred(x) then found[#found + 1] = x end
  end
  return found
end

-- The total number of dice a seat has on the board.
function helpers.dice_of(g, seat)
  local total = 0
  for _, label in ipairs(g:labels()) do
    if g:owner(label) == seat then total = total + g:counter(label, "dice") end
  end
  return total
end
