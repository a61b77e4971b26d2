-- GCRA: take up to ARGV[3] tokens at once (a lease), or one token at most
-- ARGV[4] microseconds away. Atomic, on the server's clock (TIME), so the
-- clocks of the processes sharing KEYS[1] do not matter.
--
-- KEYS[1]  the theoretical arrival time (TAT), in microseconds
-- ARGV[1]  emission interval T (microseconds per token, may be fractional)
-- ARGV[2]  burst tolerance tau (microseconds): the refresh period
-- ARGV[3]  tokens wanted (>= 1)
-- ARGV[4]  longest wait accepted for one token (microseconds)
-- ARGV[5]  grace after the TAT before the key expires (milliseconds)
--
-- Returns {granted, wait_us, next_us}: granted tokens (0: none), the wait
-- before the first may be used, and when none was granted, how long until
-- one would be.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local tau = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local max_wait = tonumber(ARGV[4])
local grace = tonumber(ARGV[5])

local tat = tonumber(redis.call('GET', KEYS[1]) or 0)
if tat < now then tat = now end

-- Tokens that fit under the tolerance now.
-- (The epsilon absorbs floating-point error in tau / interval.)
local available = math.floor((now + tau - tat) / interval + 1e-9)
local granted, wait
if available >= 1 then
  granted = math.min(want, available)
  wait = 0
else
  -- One token, if it comes soon enough.
  wait = tat + interval - tau - now
  if wait > max_wait then
    return {0, 0, math.ceil(wait)}
  end
  granted = 1
end
local new_tat = tat + granted * interval
local ttl = math.ceil((new_tat - now) / 1000) + grace
redis.call('SET', KEYS[1], string.format('%.3f', new_tat), 'PX', ttl)
return {granted, math.ceil(wait), 0}
