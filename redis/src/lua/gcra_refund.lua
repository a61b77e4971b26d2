-- GCRA refund: give ARGV[1] unused tokens back by moving the theoretical
-- arrival time back one emission interval each, never below now.
--
-- KEYS[1]  the theoretical arrival time (TAT), in microseconds
-- ARGV[1]  tokens given back
-- ARGV[2]  emission interval T (microseconds)
-- ARGV[3]  grace after the TAT before the key expires (milliseconds)
--
-- Returns 1 if the TAT moved, 0 if there was nothing to give back to.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or 0)
if tat <= now then
  return 0
end
local new_tat = tat - tonumber(ARGV[1]) * tonumber(ARGV[2])
if new_tat <= now then
  redis.call('DEL', KEYS[1])
  return 1
end
local ttl = math.ceil((new_tat - now) / 1000) + tonumber(ARGV[3])
redis.call('SET', KEYS[1], string.format('%.3f', new_tat), 'PX', ttl)
return 1
