-- luacheck settings for mods' Lua: hooks and scenario tests (`luacheck mods`).
std = "lua54"
max_line_length = 120

-- What the engine provides to hooks.
read_globals = { "game", "meeple" }

files["**/hooks/**.lua"] = {
  -- Hook files define global functions that rules call with hook("name", ...): defining them
  -- is allowed, and they are used from TOML, where luacheck cannot see it (warning 131).
  allow_defined_top = true,
  ignore = { "131" },
}

files["**/tests/*.lua"] = {
  read_globals = { "scenario", "test", "expect", "expect_eq", "expect_error", "expect_near" },
  -- `tests/_*.lua` put shared helpers on this table for every test file of the mod.
  globals = { "helpers" },
}
