-- wrk: POST /transaction (25 USD paid in USDC on base) for many merchants of one account: every request picks one
-- header line at random from the file named by BENCH_HEADERS ("Name: value" per line, one per merchant).
-- Used by bench/payment-path.sh --merchants N (gateway: X-Publishable-Key pk_…:<merchant>; direct: Authorization).
local path = os.getenv("BENCH_HEADERS")
local choices = {}
for line in io.lines(path) do
  local name, value = line:match("^([^:]+):%s*(.*)$")
  if name then
    choices[#choices + 1] = { name, value }
  end
end
local body = '{"amount":25,"amountCurrency":"USD","asset":"USDC","network":"base","referenceNumber":"bench-order"}'
math.randomseed(os.time() + math.floor(os.clock() * 1000000))

request = function()
  local choice = choices[math.random(#choices)]
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json", [choice[1]] = choice[2] }, body)
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
