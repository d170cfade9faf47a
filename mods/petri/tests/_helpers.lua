-- Helpers shared by every test file of Petri (files named `_*.lua` are loaded before each test
-- file): small dishes drawn as pictures, and the board drawn back as a picture.
--
-- A picture is one string per row, top row first, one character per cell: `1` a cell of the
-- first culture (Green), `2` of the second (Purple), `.` empty agar, `#` no cell. Cells are
-- labelled column letter then two-digit row: the top-left cell is `A00`, the one right of it
-- `B00`, the one below it `A01`.

-- The board of a picture, for `scenario.new{ board = ... }`. The game's setup gives every `1`
-- and `2` cell to its culture, so a new game starts in the position drawn.
function helpers.dish(picture)
  return {
    kind = "square", columns = #picture[1], rows = #picture, neighbours = 8, layout = picture,
    legend = {
      ["."] = "agar",
      ["1"] = { terrain = "agar", home = 0 },
      ["2"] = { terrain = "agar", home = 1 },
      ["#"] = { empty = true },
    },
  }
end

-- A game on the drawn dish; Green (seat 1) moves first unless `seat` says otherwise.
function helpers.game(picture, seat)
  local g = scenario.new{ seed = 1, seats = 2, board = helpers.dish(picture) }
  if seat then g:set_turn(seat) end
  return g
end

-- The label of the cell in column `column` and row `row`, both counted from 0.
function helpers.label(column, row)
  return string.char(65 + column) .. string.format("%02d", row)
end

-- The board as a picture like the ones `dish` takes.
function helpers.picture(g)
  local cells, columns, rows = {}, 0, 0
  for _, label in ipairs(g:labels()) do
    cells[label] = true
    columns = math.max(columns, string.byte(label) - 64)
    rows = math.max(rows, (math.tointeger(label:sub(2)) or 0) + 1)
  end
  local picture = {}
  for row = 0, rows - 1 do
    local line = {}
    for column = 0, columns - 1 do
      local label = helpers.label(column, row)
      if not cells[label] then
        line[#line + 1] = "#"
      else
        line[#line + 1] = tostring(g:owner(label) or ".")
      end
    end
    picture[#picture + 1] = table.concat(line)
  end
  return picture
end

-- The moves `g:legal()` offers for `action`, as "from>to" strings in alphabetical order.
function helpers.moves(g, action)
  local out = {}
  for _, record in ipairs(g:legal()) do
    if record.action == action then out[#out + 1] = record.from .. ">" .. record.to end
  end
  table.sort(out)
  return out
end

-- Expects `g:try{...}` to be refused and the board to stay as it was.
function helpers.refused(g, record, message)
  local before = helpers.picture(g)
  local ok, reason = g:try(record)
  expect_eq(ok, false, message or "the move should be refused")
  expect_eq(helpers.picture(g), before, "a refused move changes nothing")
  return reason
end
