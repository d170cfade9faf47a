-- What the rules language cannot say in a line: a fallen character's equipment, card by card.

--- Whether a piece holds a card of this kind attached.
---@param piece integer
---@param card string
---@return boolean
local function holds(piece, card)
  for _, held in ipairs(game.attached(piece)) do
    if held == card then return true end
  end
  return false
end

--- A character falls: its equipment goes to the house that beat it in a fight (`taker`, a seat
--- number; 0 when it fell to anything else, and then its equipment is discarded). The winner
--- assigns each card at once to its strongest character on the space that lacks that kind; a
--- duplicate goes into its hand, face down.
---@param victim integer
---@param taker integer
function fall(victim, taker)
  local owner = game.piece_owner(victim)
  local space = game.piece_space(victim)
  for _, card in ipairs(game.attached(victim)) do
    if taker > 0 then
      game.detach(victim, card, taker)
      local best, best_strength = nil, -1
      for _, piece in ipairs(game.pieces(space)) do
        local strength = game.stat(piece, "strength")
        if game.piece_owner(piece) == taker and strength > best_strength and not holds(piece, card) then
          best, best_strength = piece, strength
        end
      end
      if best then game.attach(best, card, taker) end
    else
      game.detach(victim, card, owner)
      game.discard(owner, card)
    end
  end
end

--- The two-player game is played with four seats, two houses a player.
function two_players_need_four_seats()
  error("the two-player game takes four seats: two houses for each player")
end
