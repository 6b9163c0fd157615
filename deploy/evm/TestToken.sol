// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Test USD Coin (USDC, 6 decimals) of the local anvil chain
/// @notice A minimal ERC-20 with no dependencies, deployed by deploy/local/anvil.sh (and the transaction-service chain
///         tests) from anvil account 0 as its first transaction, so it sits at the deterministic address
///         0x5FbDB2315678afecb367f032d93F642f64180aa3. The deployer receives the whole supply and pays the test
///         customers from it. Never deployed anywhere but a local development chain.
/// @dev Compiled by compile.sh into TestToken.bin / TestToken.abi (both committed).
contract TestToken {
    string public constant name = "Test USD Coin";
    string public constant symbol = "USDC";
    uint8 public constant decimals = 6;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    /// @notice Mints 1,000,000,000 USDC to the deployer.
    constructor() {
        uint256 supply = 1_000_000_000 * 10 ** uint256(decimals);
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        require(spender != address(0), "ERC20: approve to the zero address");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// @notice Spends an allowance; an allowance of type(uint256).max is unlimited and never decreases.
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "ERC20: insufficient allowance");
            unchecked {
                allowance[from][msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "ERC20: transfer to the zero address");
        uint256 balance = balanceOf[from];
        require(balance >= value, "ERC20: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] = balance - value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
