-- Hooks.

function explode()
  error("boom went wrong")
end
