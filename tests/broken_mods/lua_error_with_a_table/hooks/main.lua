-- An error raised with a table instead of a message.
function forever()
  error({ code = 1 })
end
