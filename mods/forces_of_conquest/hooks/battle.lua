-- Battles that last. An army entering a territory with an enemy army fights at once, and the
-- battle goes on, one round at the start of each turn of the player who began it (a rogue
-- army's: the player it acts for), until one side has no units left or retreats.
--
-- The armies in a battle carry its number (`battle`), their side (`battle_side`: 1 attacking,
-- 2 defending), the seat on whose turns it is fought (`fought_on`) and the rounds fought
-- (`rounds`). In a round each unit strikes once, at one unit: with even numbers one on one;
-- otherwise the larger side spreads over the smaller (all one on one before any two on one)
-- and each unit of the smaller side strikes one of those on it. Who meets whom is drawn at
-- random. A strike takes the striker's attack off the target's defence; at 0 the unit is gone.

local function armies_in(battle)
  local out = {}
  for _, piece in ipairs(game.pieces()) do
    if game.piece_kind(piece) == "army" and game.stat(piece, "battle") == battle then out[#out + 1] = piece end
  end
  return out
end

local function units_on_side(armies, side)
  local out = {}
  for _, army in ipairs(armies) do
    if game.stat(army, "battle_side") == side then
      for _, unit in ipairs(game.contents(army)) do out[#out + 1] = unit end
    end
  end
  return out
end

-- The strikes of one round: { striker, target } pairs.
local function strikes(attackers, defenders)
  local big, small = attackers, defenders
  if #defenders > #attackers then big, small = defenders, attackers end
  local onto = game.spread(big, small)
  local out, facing = {}, {}
  for i, unit in ipairs(big) do
    out[#out + 1] = { unit, onto[i] }
    facing[onto[i]] = facing[onto[i]] or {}
    table.insert(facing[onto[i]], unit)
  end
  for _, unit in ipairs(small) do
    local on = facing[unit]
    out[#out + 1] = { unit, on[game.random(1, #on)] }
  end
  return out
end

-- A unit as the log names it: its kind and whose it is ("a rogue" for nobody's).
local function name_of(unit)
  local owner = game.piece_owner(unit)
  return (owner and game.seat_name(owner) .. "'s " or "a rogue ") .. game.piece_kind(unit) .. " #" .. unit
end

local function leave(army)
  game.set_stat(army, "battle", 0)
  game.set_stat(army, "battle_side", 0)
  game.set_stat(army, "fought_on", 0)
  game.set_stat(army, "rounds", 0)
end

-- Ends the battle when a side is empty: the armies left go back to being free (next turn).
local function settle(battle)
  local armies = armies_in(battle)
  local sides = {}
  for _, army in ipairs(armies) do sides[game.stat(army, "battle_side")] = true end
  if not (sides[1] and sides[2]) then
    for _, army in ipairs(armies) do leave(army) end
    game.log("The battle is over")
  end
end

local function fight_round(battle)
  local armies = armies_in(battle)
  local attackers, defenders = units_on_side(armies, 1), units_on_side(armies, 2)
  if #attackers == 0 or #defenders == 0 then return settle(battle) end
  local where = game.label(game.piece_space(armies[1]))
  local damage = {}
  game.log("Battle on", where .. ":", #attackers, "against", #defenders)
  for _, strike in ipairs(strikes(attackers, defenders)) do
    damage[strike[2]] = (damage[strike[2]] or 0) + game.stat(strike[1], "attack")
    -- The pairings, for the players: who strikes whom this round.
    game.log("  ", name_of(strike[1]), "strikes", name_of(strike[2]), "for", game.stat(strike[1], "attack"))
  end
  local fallen = 0
  for _, unit in ipairs(game.pieces()) do
    local hurt = damage[unit]
    if hurt then
      local left = game.stat(unit, "defence") - hurt
      if left <= 0 then
        game.remove(unit)
        fallen = fallen + 1
      else
        game.set_stat(unit, "defence", left)
      end
    end
  end
  for _, army in ipairs(armies) do
    if #game.contents(army) == 0 then
      game.remove(army)
    else
      game.set_stat(army, "rounds", game.stat(army, "rounds") + 1)
    end
  end
  game.log("Battle on", where .. ":", fallen, "fell")
  settle(battle)
end

-- `army` has just entered a territory where a player's army or a rogue army stands: every army
-- there that is not on its side joins the battle against it, and the first round is fought.
function begin_battle(army)
  local battle = game.var("next_battle")
  game.set_var("next_battle", battle + 1)
  local owner = game.piece_owner(army)
  local turn_of = owner or game.stat(army, "acts_on")
  for _, piece in ipairs(game.pieces(game.piece_space(army))) do
    if game.piece_kind(piece) == "army" and game.stat(piece, "battle") == 0 then
      local side = game.piece_owner(piece) == owner and 1 or 2
      if piece == army or side == 2 then
        game.set_stat(piece, "battle", battle)
        game.set_stat(piece, "battle_side", side)
        game.set_stat(piece, "fought_on", turn_of)
        game.set_stat(piece, "done", 1)
      end
    end
  end
  fight_round(battle)
end

-- The upkeep stage: one round of every battle fought on this player's turns.
function battle_rounds(seat)
  local seen = {}
  for _, piece in ipairs(game.pieces()) do
    local battle = game.stat(piece, "battle")
    local fought_here = game.stat(piece, "fought_on") == seat
    if game.piece_kind(piece) == "army" and battle > 0 and fought_here and not seen[battle] then
      seen[battle] = true
      fight_round(battle)
    end
  end
end

function leave_battle(army)
  local battle = game.stat(army, "battle")
  leave(army)
  settle(battle)
end
