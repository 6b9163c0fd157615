-- wrk: POST /transaction with the body in BENCH_BODY (payment-path.sh's CREATION_BODY, its one copy). Used by
-- bench/payment-path.sh through the gateway (X-Publishable-Key) and directly (Authorization: Bearer).
-- One merchant: its header comes from wrk -H. Many merchants of one account (payment-path.sh --merchants N): every
-- request picks one header line at random from the file named by BENCH_HEADERS ("Name: value" per line, one per
-- merchant; gateway: X-Publishable-Key pk_…:<merchant>; direct: Authorization).
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY") or error("BENCH_BODY: the creation's JSON body (bench/payment-path.sh sets it)")
wrk.headers["Content-Type"] = "application/json"

local path = os.getenv("BENCH_HEADERS")
if path then
  local choices = {}
  for line in io.lines(path) do
    local name, value = line:match("^([^:]+):%s*(.*)$")
    if name then
      choices[#choices + 1] = { name, value }
    end
  end
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
  request = function()
    local choice = choices[math.random(#choices)]
    return wrk.format(nil, nil, { ["Content-Type"] = "application/json", [choice[1]] = choice[2] })
  end
end

-- The clocks (LuaJIT's ffi; wrk's Lua has none finer than a second): CLOCK_MONOTONIC for the pacing and the gaps,
-- CLOCK_REALTIME to say when the longest gap ended.
local ffi = require("ffi")
ffi.cdef [[
struct bench_timespec { long tv_sec; long tv_nsec; };
int clock_gettime(int clk_id, struct bench_timespec *tp);
]]
local ts = ffi.new("struct bench_timespec")
local function clock_ms(id)
  ffi.C.clock_gettime(id, ts)
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

-- BENCH_RATE (the steady state of payment-path.sh, section 5): creations a second over all connections, on a fixed
-- schedule. wrk calls delay() before each request; each thread (its own Lua state) hands out send times BENCH_THREADS
-- / BENCH_RATE s apart (BENCH_THREADS: wrk's -t), so the rate holds whatever the latency, as long as the connections
-- can cover it. A fixed pause after each answer undershot its aim by the latency (122 a second for 135). After a
-- stall at most a second of missed sends is made up.
local rate = tonumber(os.getenv("BENCH_RATE") or "0")
if rate > 0 then
  local interval = 1000 * tonumber(os.getenv("BENCH_THREADS") or "1") / rate
  local next_send
  delay = function()
    local now = clock_ms(1)
    next_send = math.max(next_send or now, now - 1000)
    local send = next_send
    next_send = send + interval
    return math.max(0, send - now) -- ms; wrk truncates it, the schedule keeps the mean exact
  end
end

-- The longest time between two answers on a thread, and when it ended: a stall shows here. wrk 4 counts a "timeout"
-- for each answer that came more than --timeout (2 s) after its request and leaves it out of the latencies, so a
-- stall of the server gives one timeout per waiting connection and nothing in the latency figures.
gap_ms, gap_end = 0, 0
local last_answer
local threads = {}
setup = function(thread)
  threads[#threads + 1] = thread
end
done = function()
  local longest, ended = 0, 0
  for _, thread in ipairs(threads) do
    if thread:get("gap_ms") > longest then
      longest, ended = thread:get("gap_ms"), thread:get("gap_end")
    end
  end
  io.write(string.format("Longest gap between answers: %.0f ms, ended %s.%03d UTC\n", longest,
    os.date("!%H:%M:%S", math.floor(ended / 1000)), math.floor(ended % 1000)))
end

local non201 = 0
response = function(status, headers, body)
  local now = clock_ms(1)
  if last_answer and now - last_answer > gap_ms then
    gap_ms, gap_end = now - last_answer, clock_ms(0)
  end
  last_answer = now
  if status ~= 201 and status ~= 200 then
    non201 = non201 + 1
    if non201 <= 3 then
      io.stderr:write("status " .. status .. ": " .. string.sub(body, 1, 300) .. "\n")
    end
  end
end
