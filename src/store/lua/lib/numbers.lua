-- numbers.lua: numbers in their stored text (number-codec.ts), read and written inside a script; a library
-- inlined into increment.lua and repair-object.lua.
-- KEYS/ARGV: none of its own.
-- The stored text of a finite number is JavaScript's String(n), and '-0' for -0: the text a create of that
-- number stores, so that an index key or unique value named by it is the one a query names.

-- Whether `text` has the stored form of a number (number-codec.ts: -?(0|[1-9]\d*)(\.\d+)?(e[+-]\d+)?), which
-- is what find() reads; Lua's tonumber takes more ('0x10', ' 7', 'inf', 'nan').
local function isNumberText(text)
  local rest = string.match(text, '^-?(.*)$')
  local whole = string.match(rest, '^0') or string.match(rest, '^[1-9]%d*')
  if not whole then
    return false
  end
  rest = string.sub(rest, #whole + 1)
  local fraction = string.match(rest, '^%.%d+')
  if fraction then
    rest = string.sub(rest, #fraction + 1)
  end
  local exponent = string.match(rest, '^e[+-]%d+')
  if exponent then
    rest = string.sub(rest, #exponent + 1)
  end
  return rest == ''
end

-- Whether a score index can hold `text`: a stored number (isNumberText) that ZADD reads as a finite double
-- other than by underflow ('1e400' overflows, '1e-400' underflows to 0: ZADD refuses both).
local function isScoreText(text)
  if not isNumberText(text) then
    return false
  end
  local n = tonumber(text)
  if n == math.huge or n == -math.huge then
    return false
  end
  return n ~= 0 or not string.find(string.match(text, '^[^e]*'), '[1-9]')
end

-- The decimal one unit in its last place further from zero than `text`, with as many digits, in %e's form.
local function nextDecimal(text)
  local sign, first, rest, exponent = string.match(text, '^(-?)(%d)%.?(%d*)e([-+]%d+)$')
  local digits, e = first .. rest, tonumber(exponent)
  local i = #digits
  while string.sub(digits, i, i) == '9' do
    i = i - 1
  end
  if i == 0 then
    digits, e = '1' .. string.rep('0', #digits - 1), e + 1
  else
    digits = string.sub(digits, 1, i - 1) .. (tonumber(string.sub(digits, i, i)) + 1) .. string.rep('0', #digits - i)
  end
  local fraction = string.sub(digits, 2)
  return sign .. string.sub(digits, 1, 1) .. (fraction == '' and '' or '.' .. fraction) .. string.format('e%+03d', e)
end

-- A finite number as JavaScript's String(x) writes it (Number::toString with the recommended choice), and -0
-- as '-0' (String(-0) is '0'): the fewest significant digits that read back as x, and of those the decimal
-- closest to x (the even one of two as close, as %e rounds); plain for decimal exponents -7 < e < 21, else as
-- 1.5e+21.
-- For each number of digits p the candidate is x rounded to p digits (%e, correctly rounded). When it does not
-- read back as x it may be because it lies on the side of x towards zero and x is a power of two: the doubles
-- below x are twice as close together as those above, so the decimals that read back as x reach half as far
-- below it as above it, and the p-digit decimal one unit further from zero can read back as x, as the only
-- p-digit one. Elsewhere the two sides reach as far, and neither fits when the nearest does not.
local function numberForm(x)
  if x == 0 then
    return 1 / x < 0 and '-0' or '0'
  end
  if x == math.floor(x) and math.abs(x) < 2 ^ 53 then
    return string.format('%d', x)
  end
  -- a power of two (frexp's fraction is 1/2): the one case where the nearest can miss and the next one fit
  local powerOfTwo = math.abs((math.frexp(x))) == 0.5
  local s
  for precision = 0, 16 do
    s = string.format('%.' .. precision .. 'e', x)
    local read = tonumber(s)
    if read == x then
      break
    end
    if powerOfTwo and math.abs(read) < math.abs(x) then
      local further = nextDecimal(s)
      if tonumber(further) == x then
        s = further
        break
      end
    end
  end
  local sign, first, rest, exponent = string.match(s, '^(-?)(%d)%.?(%d*)e([-+]%d+)$')
  local digits = string.gsub(first .. rest, '0+$', '')
  local e, n = tonumber(exponent), #digits
  if e >= 21 or e < -6 then
    local mantissa = n > 1 and (string.sub(digits, 1, 1) .. '.' .. string.sub(digits, 2)) or digits
    return sign .. mantissa .. 'e' .. (e >= 0 and '+' or '-') .. math.abs(e)
  elseif e >= n - 1 then
    return sign .. digits .. string.rep('0', e - n + 1)
  elseif e >= 0 then
    return sign .. string.sub(digits, 1, e + 1) .. '.' .. string.sub(digits, e + 2)
  end
  return sign .. '0.' .. string.rep('0', -e - 1) .. digits
end
