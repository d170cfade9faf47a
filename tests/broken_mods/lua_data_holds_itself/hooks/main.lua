-- Data that holds itself, logged and then kept.
function forever()
  local board = { name = "board" }
  board.self = board
  game.log(board)
  game.put("board", board)
end
