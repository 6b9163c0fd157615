-- wrk: POST /transaction with a fixed body (25 USD paid in USDC on base). Used by bench/payment-path.sh through the
-- gateway (X-Publishable-Key) and directly (Authorization: Bearer).
-- One merchant: its header comes from wrk -H. Many merchants of one account (payment-path.sh --merchants N): every
-- request picks one header line at random from the file named by BENCH_HEADERS ("Name: value" per line, one per
-- merchant; gateway: X-Publishable-Key pk_…:<merchant>; direct: Authorization).
wrk.method = "POST"
wrk.body = '{"amount":25,"amountCurrency":"USD","asset":"USDC","network":"base","referenceNumber":"bench-order"}'
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

-- BENCH_DELAY_MS (the steady state of payment-path.sh, section 5): each connection waits this long after an answer
-- before its next request, so 16 connections make at most 16,000 / BENCH_DELAY_MS creations a second.
local delay_ms = tonumber(os.getenv("BENCH_DELAY_MS") or "0")
if delay_ms > 0 then
  delay = function()
    return delay_ms
  end
end

local non201 = 0
response = function(status, headers, body)
  if status ~= 201 and status ~= 200 then
    non201 = non201 + 1
    if non201 <= 3 then
      io.stderr:write("status " .. status .. ": " .. string.sub(body, 1, 300) .. "\n")
    end
  end
end
