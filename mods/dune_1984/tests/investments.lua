-- Investments: each house's three spaces pay when any house's roll sums to one of their two
-- numbers, the ratio on the stake plus the stake; what has not paid by the house's own next
-- roll is lost.

local h = helpers

-- Red moves Paul to the spice field D1 (4 spice then), invests, and passes.
local function red_invests(g, bet, amount)
  h.red_moves(g)
  g:act{ action = "invest", bet = bet, amount = amount }
  -- A house left with nothing to do ends its turn by itself.
  if g:current_seat() == 1 then g:pass() end
end

test("a stake pays when another house rolls one of its numbers: 1:1 doubles it", function()
  local g = h.game()
  red_invests(g, "I1", 4)
  expect_eq(g:resource(1, "spice"), 0)
  expect_eq(g:counter("I1", "stake"), 4)
  h.roll(g, 4, 5)
  expect_eq(g:resource(1, "spice"), 8, "4 or 9, 1:1: 4 won and the 4 staked back")
  expect_eq(g:counter("I1", "stake"), 0)
end)

test("3:1 and 1:2 pay their ratio, rounded down, with the stake", function()
  local g = h.game()
  red_invests(g, "I0", 3)
  h.roll(g, 6, 5)
  expect_eq(g:resource(1, "spice"), 1 + 3 + 9, "2 or 11 at 3:1")
  local g2 = h.game()
  red_invests(g2, "I2", 3)
  h.roll(g2, 2, 3)
  expect_eq(g2:resource(1, "spice"), 1 + 3 + 1, "5 or 6 at 1:2 pays 1 on 3")
end)

test("the house's own roll pays too; a stake unpaid by then is lost after that roll", function()
  local g = h.game()
  red_invests(g, "I0", 2)
  expect_eq(g:resource(1, "spice"), 2)
  h.quiet_turn(g, h.SHADDAM, "D7")
  h.quiet_turn(g, h.KYNES, "D13")
  h.quiet_turn(g, h.BARON, "D19")
  h.roll(g, 3, 4)
  expect_eq(g:counter("I0", "stake"), 0, "7 is not 2 or 11: the stake is lost")
  expect_eq(g:resource(1, "spice"), 2)
  local g2 = h.game()
  red_invests(g2, "I1", 2)
  h.quiet_turn(g2, h.SHADDAM, "D7")
  h.quiet_turn(g2, h.KYNES, "D13")
  h.quiet_turn(g2, h.BARON, "D19")
  h.roll(g2, 4, 5)
  expect_eq(g2:resource(1, "spice"), 2 + 4, "red's own 9 pays its 4-or-9 space")
end)

test("a house invests only on its own three spaces, and after investing buys nothing more", function()
  local g = h.game()
  h.red_moves(g)
  h.refused(g, { action = "invest", bet = "I3", amount = 1 })
  g:act{ action = "invest", bet = "I2", amount = 1 }
  expect_eq(h.offers(g, "buy_harvester"), false)
  expect(h.offers(g, "invest"), "more may be invested")
end)

test("the preview works the chance of a return out from the dice and the houses playing", function()
  local g = h.game()
  h.red_moves(g)
  local figures = g:preview{ action = "invest", bet = "I1", amount = 2 }
  -- 4 or 9: 7 of the 36 sums; four rolls before red's stake is lost.
  expect_near(figures["Chance it pays by your next roll"], 1 - (29 / 36) ^ 4, 1e-9)
  expect_eq(figures["Spice back if it pays"], 4)
end)
