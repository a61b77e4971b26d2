-- Retry budget: add a batch of deposits, take an allowance of retries,
-- and report the window's totals. Atomic, on the server's clock (TIME).
--
-- The window is ARGV[2] slots of ARGV[1] milliseconds; slot n of the
-- deposits is KEYS[1] .. n, of the withdrawals KEYS[2] .. n. A slot's key
-- expires when it leaves the window, plus a grace.
--
-- ARGV[1]  slot length (ms)        ARGV[2]  slots per window
-- ARGV[3]  deposits to add         ARGV[4]  retries wanted
-- ARGV[5]  ratio (0..1)            ARGV[6]  floor: retries always allowed per window
-- ARGV[7]  grace (ms)
--
-- Returns {granted, deposits_in_window, withdrawals_in_window}.
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slot_ms = tonumber(ARGV[1])
local slots = tonumber(ARGV[2])
local add = tonumber(ARGV[3])
local want = tonumber(ARGV[4])
local ratio = tonumber(ARGV[5])
local floor = tonumber(ARGV[6])
local expiry = slot_ms * slots + tonumber(ARGV[7])
local slot = math.floor(now_ms / slot_ms)

if add > 0 then
  local key = KEYS[1] .. slot
  redis.call('INCRBY', key, add)
  redis.call('PEXPIRE', key, expiry)
end
local deposits, withdrawals = 0, 0
for i = 0, slots - 1 do
  deposits = deposits + tonumber(redis.call('GET', KEYS[1] .. (slot - i)) or 0)
  withdrawals = withdrawals + tonumber(redis.call('GET', KEYS[2] .. (slot - i)) or 0)
end
local room = math.floor(floor + ratio * deposits - withdrawals)
local granted = 0
if want > 0 and room > 0 then
  granted = math.min(want, room)
  local key = KEYS[2] .. slot
  redis.call('INCRBY', key, granted)
  redis.call('PEXPIRE', key, expiry)
  withdrawals = withdrawals + granted
end
return {granted, deposits, withdrawals}
