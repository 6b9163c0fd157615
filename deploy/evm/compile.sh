#!/usr/bin/env bash
# Compiles TestToken.sol with the solc pinned in package.json (solcjs, no native compiler needed) and writes
#   TestToken.bin   creation bytecode, hex without 0x (what deploy/local/anvil.sh and the chain tests deploy)
#   TestToken.abi   the ABI, JSON
# Both outputs are committed, so nothing but a change of TestToken.sol needs this script. Deterministic: the
# optimizer settings and EVM version are fixed, and the metadata hash is left out of the bytecode.
#
#   deploy/evm/compile.sh          (runs npm ci first when deploy/evm/node_modules is missing)
set -euo pipefail
EVM_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$EVM_DIR"

command -v node >/dev/null || { echo "ERROR: node not found; install Node.js 20+ (e.g. apt-get install nodejs npm)" >&2; exit 1; }
if [[ ! -d node_modules/solc ]]; then
  echo "==> evm: installing the pinned tools (npm ci in deploy/evm)"
  npm ci --no-audit --no-fund --ignore-scripts
fi

node - <<'JS'
const fs = require('fs');
const solc = require('solc');
const input = {
  language: 'Solidity',
  sources: { 'TestToken.sol': { content: fs.readFileSync('TestToken.sol', 'utf8') } },
  settings: {
    // Cancun: supported by anvil and every public EVM testnet the token could be compared with.
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 200 },
    metadata: { bytecodeHash: 'none' },
    outputSelection: { 'TestToken.sol': { TestToken: ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const problems = (output.errors || []).filter((e) => e.severity === 'error');
for (const e of output.errors || []) console.error(e.formattedMessage);
if (problems.length > 0) process.exit(1);
const token = output.contracts['TestToken.sol'].TestToken;
fs.writeFileSync('TestToken.bin', token.evm.bytecode.object + '\n');
fs.writeFileSync('TestToken.abi', JSON.stringify(token.abi, null, 2) + '\n');
console.log(`==> evm: compiled TestToken.sol with solc ${solc.version()}: TestToken.bin (${token.evm.bytecode.object.length / 2} bytes), TestToken.abi`);
JS
