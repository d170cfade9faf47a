-- Knock-back: a unit wounded by an attack holding three cards of one power (two for a weapon
-- that says so) is knocked one square straight back from its attacker. Off a straight line its
-- team chooses between the two squares around the line (the response `knocked_back`). A wall
-- behind it, a unit behind it or the dome's edge negates the knock; lava behind it kills it.

-- The blow landed: knock `target` back from `attacker`.
function push_back(attacker, target)
  local onto = game.beyond(game.piece_space(attacker), game.piece_space(target))
  if #onto == 0 then
    game.log("Knocked against the dome's wall: it stands its ground.")
  elseif #onto == 1 then
    push_to(attacker, target, onto[1])
  else
    game.offer(game.piece_owner(target), "knocked_back", attacker, target)
  end
end

-- Moves `target` onto `onto` unless a wall or a unit is in the way; lava kills.
function push_to(attacker, target, onto)
  local at = game.piece_space(target)
  if game.wall(at, onto) ~= nil then
    game.log("Knocked against a wall: it stands its ground.")
  elseif #game.pieces(onto) > 0 then
    game.log("Knocked against a unit: it stands its ground.")
  else
    game.move_piece(target, onto)
    if game.terrain(onto) == "lava" then
      game.log("Knocked into the lava!")
      game.set_stat(target, "vitae", 0)
      game.offer(game.piece_owner(attacker), "imprison", target, 1)
    else
      game.log("Knocked back.")
    end
  end
end
