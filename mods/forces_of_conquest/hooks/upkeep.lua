-- The upkeep stage. Every army of the player is owed the upkeep of its units (units trained
-- this turn are not in an army yet at this stage, so they cost nothing). Armies closest to the
-- base are fed first, in full; among armies as close, the smallest first. When the food left
-- cannot feed the next one in full, what is left is shared evenly among the rest (the nearer
-- ones get the odd units). An army not fed in full can only defend this turn, and may go rogue.

-- The chance that an army not fed in full goes rogue, as a fraction hits / outcomes:
-- P = (100 / S) * F * (S - 3R) percent, S the army's size, R its rangers and F the share of its
-- upkeep unpaid, (total - paid) / total. Never below 0 (rangers feed themselves and two
-- others) nor above 100 (F is at most 1 and S - 3R at most S).
function rogue_chance(army, total, paid)
  local size, rangers = 0, 0
  for _, unit in ipairs(game.contents(army)) do
    size = size + 1
    if game.piece_kind(unit) == "ranger" then rangers = rangers + 1 end
  end
  if size == 0 or total <= 0 or paid >= total then return 0, 1 end
  return (total - paid) * math.max(0, size - 3 * rangers), size * total
end

local function owed(army)
  local total = 0
  for _, unit in ipairs(game.contents(army)) do total = total + game.stat(unit, "upkeep") end
  return total
end

local function base_of(seat)
  for _, piece in ipairs(game.pieces()) do
    if game.piece_kind(piece) == "flag" and game.piece_owner(piece) == seat then return game.piece_space(piece) end
  end
end

local function rogues()
  local out = {}
  for _, piece in ipairs(game.pieces()) do
    if game.piece_kind(piece) == "army" and game.piece_owner(piece) == nil then out[#out + 1] = piece end
  end
  return out
end

-- An army goes rogue: it and its units are nobody's, acting on this player's turns. At the most
-- rogue armies there may be, one of them (drawn at random) is destroyed to make room.
local function go_rogue(army, seat)
  local existing = rogues()
  if #existing >= game.var("max_rogues") then game.remove(existing[game.random(1, #existing)]) end
  game.set_piece_owner(army, nil)
  game.set_stat(army, "acts_on", seat)
  game.set_stat(army, "starved", 0)
  game.log("An army of", game.seat_name(seat), "goes rogue")
end

function pay_upkeep(seat)
  local base = base_of(seat)
  local armies = {}
  for _, piece in ipairs(game.pieces()) do
    local kind = game.piece_kind(piece)
    if game.piece_owner(piece) == seat and (kind == "army" or #game.contents(piece) > 0) and kind ~= "flag" then
      local far = base and game.distance(game.piece_space(piece), base) or 0
      -- Units standing in a structure eat 1 each, whatever they ate before (a ranger cannot
      -- hunt from a tower).
      local due = kind == "army" and owed(piece) or #game.contents(piece)
      armies[#armies + 1] = { army = piece, owed = due, size = #game.contents(piece), far = far or 999 }
    end
  end
  table.sort(armies, function(a, b)
    if a.far ~= b.far then return a.far < b.far end
    if a.size ~= b.size then return a.size < b.size end
    return a.army < b.army
  end)
  local food, i = game.resource(seat, "food"), 1
  while i <= #armies and armies[i].owed <= food do
    armies[i].paid = armies[i].owed
    food = food - armies[i].owed
    i = i + 1
  end
  local rest = #armies - i + 1
  if rest > 0 then
    local share, odd = food // rest, food % rest
    for j = i, #armies do
      armies[j].paid = math.min(armies[j].owed, share + ((j - i) < odd and 1 or 0))
      food = food - armies[j].paid
    end
  end
  game.set_resource(seat, "food", food)
  for _, entry in ipairs(armies) do
    local short = entry.paid < entry.owed
    game.set_stat(entry.army, "starved", short and 1 or 0)
    if short and game.piece_kind(entry.army) == "army" then
      local hits, outcomes = rogue_chance(entry.army, entry.owed, entry.paid)
      if hits > 0 and game.random(1, outcomes) <= hits then go_rogue(entry.army, seat) end
    end
  end
end
