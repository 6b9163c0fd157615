-- wrk: POST /transaction with a fixed body (25 USD paid in USDC on base), the headers come from wrk -H.
-- Used by bench/payment-path.sh through the gateway (X-Publishable-Key) and directly (Authorization: Bearer).
wrk.method = "POST"
wrk.body = '{"amount":25,"amountCurrency":"USD","asset":"USDC","network":"base","referenceNumber":"bench-order"}'
wrk.headers["Content-Type"] = "application/json"

local non201 = 0
response = function(status, headers, body)
  if status ~= 201 and status ~= 200 then
    non201 = non201 + 1
    if non201 <= 3 then
      io.stderr:write("status " .. status .. ": " .. string.sub(body, 1, 300) .. "\n")
    end
  end
end
