#!/usr/bin/env python3
"""Gives the benchmark's merchants a QR lifetime for USDC on base, through the public API, and waits until
transaction-service creates with it (bench/payment-path.sh: the run's lifetime before the warm-up, so that the
warm-up's transactions do not expire during the idle reading after the runs, and the steady state's short one).

    merchant-lifetime.py GATEWAY_URL ACCOUNT API_KEY LIFETIME_SECONDS PAIRS_FILE CREATION_BODY

PAIRS_FILE has one line per merchant: its UUID, a tab, and the header line it creates with through the gateway
("X-Publishable-Key: pk_..." or "X-Publishable-Key: pk_...:<merchant>"). Each merchant is read (GET), written back
with its USDC-on-base settings (its own, else the account's, which it inherits) and the new qrExpirationSeconds
(Update Merchant, PUT), then creates one transaction at a time through the gateway with CREATION_BODY (payment-path.sh's
creation, USDC on base) and reads it back, until one expires LIFETIME_SECONDS after its creation: the update reaches
transaction-service through Kafka (and a new merchant or key the gateway). Prints how many merchants and how long it
took; exits 1, naming the merchant, when one does not get there within 20 s. One process for all merchants: the
curl-per-request loops of payment-path.sh take about a second a merchant with 200 of them on a slow instance.
"""
import json
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime

gateway, account, api_key, lifetime, pairs_file = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
CREATION = sys.argv[6].encode()


def call(method, path, headers, body=None):
    request = urllib.request.Request(gateway + path, data=body, method=method,
                                     headers=dict(headers, **({"Content-Type": "application/json"} if body else {})))
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")[:300]


def instant(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


started = time.monotonic()
pairs = [line.rstrip("\n").split("\t", 1) for line in open(pairs_file) if line.strip()]
owner = {"X-Api-Key": api_key}


def base_usdc(configured):
    networks = configured.get("cryptoNetworkConfigs") or {}
    return ((networks.get("base") or {}).get("cryptoAssetConfigs") or {}).get("USDC")


status, account_config = call("GET", f"/accounts/{account}/config", owner)
if status != 200:
    sys.exit(f"GET account configuration: HTTP {status} {account_config}")
for merchant, header in pairs:
    path = f"/accounts/{account}/merchants/{merchant}"
    status, current = call("GET", path, owner)
    if status != 200:
        sys.exit(f"GET merchant {merchant}: HTTP {status} {current}")
    body = {k: current[k] for k in ("name", "address1", "city", "region", "country")}
    usdc = base_usdc(current) or base_usdc(account_config)
    if not usdc:
        sys.exit(f"neither merchant {merchant} nor its account has settings for USDC on base to shorten")
    body["cryptoNetworkConfigs"] = {"base": {"cryptoAssetConfigs": {"USDC": dict(usdc, qrExpirationSeconds=lifetime)}}}
    status, answer = call("PUT", path, owner, json.dumps(body).encode())
    if status != 200:
        sys.exit(f"PUT merchant {merchant}: HTTP {status} {answer}")

for merchant, header in pairs:
    name, value = (part.strip() for part in header.split(":", 1))
    deadline = time.monotonic() + 20
    while True:
        status, created = call("POST", "/transaction", {name: value}, CREATION)
        if status == 201:  # the creation's answer has no times: read the transaction back
            status, created = call("GET", f"/transaction/{created['transactionId']}", {name: value})
        if status == 200:
            seconds = (instant(created["expiration"]) - instant(created["createdAt"])).total_seconds()
            if abs(seconds - lifetime) < 1:
                break
        if time.monotonic() > deadline:
            sys.exit(f"merchant {merchant} still creates without the {lifetime} s lifetime after 20 s "
                     f"(last answer: HTTP {status} {created if status != 200 else seconds})")
        time.sleep(0.2)
print(f"{len(pairs)} merchants create with a {lifetime} s lifetime ({time.monotonic() - started:.0f} s)")
