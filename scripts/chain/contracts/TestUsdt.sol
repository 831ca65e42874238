// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

/**
 * The local chains' USDT (scripts/chain/local-chains.ts deploys it): what matters of Ethereum's Tether
 * (TetherToken at 0xdAC17F958D2ee523a2206206994597C13D831ec7), kept to the same names and behaviour:
 *
 * - 6 decimals;
 * - transfer, transferFrom and approve RETURN NO VALUE (Tether's ERC20Basic declares them without
 *   `returns (bool)`): a caller whose ABI expects a bool fails to decode the empty return data;
 * - approve refuses to change a non-zero allowance to another non-zero one (set it to 0 first), as Tether;
 * - owner-only admin under Tether's names: issue (mint to the owner), addBlackList, removeBlackList,
 *   isBlackListed (public mapping), getBlackListStatus, destroyBlackFunds (burns a blacklisted balance);
 * - as on Tether, issue and destroyBlackFunds emit Issue and DestroyedBlackFunds, not Transfer: a balance
 *   can change without a Transfer log.
 *
 * Left out: the transfer fee (basisPointsRate, 0 on mainnet), pause, deprecation/upgrade, redeem.
 *
 * As on Tether, the blacklist stops only the SENDER: a transfer TO a blacklisted address goes through (its
 * funds then frozen there), which is why the service reads `isBlackListed` of every destination itself.
 *
 * One rule is ours, not Tether's: a transfer to REFUSED_DESTINATION (0x…dEaD, the project's documented failing
 * destination) reverts. It lets tests produce a transfer the token refuses for its destination, and a
 * transaction that is mined with receipt status 0 (sign one to it without the pre-flight).
 */
contract TestUsdt {
    string public name = 'Tether USD (local)';
    string public symbol = 'USDT';
    uint8 public constant decimals = 6;
    /** Ours, not Tether's: transfers to it revert (see the contract's comment). */
    address public constant REFUSED_DESTINATION = 0x000000000000000000000000000000000000dEaD;

    address public owner;
    uint256 private _totalSupply;
    mapping(address => uint256) private balances;
    mapping(address => mapping(address => uint256)) private allowed;
    mapping(address => bool) public isBlackListed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Issue(uint256 amount);
    event AddedBlackList(address _user);
    event RemovedBlackList(address _user);
    event DestroyedBlackFunds(address _blackListedUser, uint256 _balance);

    modifier onlyOwner() {
        require(msg.sender == owner, 'not the owner');
        _;
    }

    constructor() {
        owner = msg.sender;
    }

    function totalSupply() public view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address who) public view returns (uint256) {
        return balances[who];
    }

    function allowance(address holder, address spender) public view returns (uint256) {
        return allowed[holder][spender];
    }

    // No return value, as Tether's.
    function transfer(address to, uint256 value) public {
        require(!isBlackListed[msg.sender], 'sender is blacklisted');
        require(to != REFUSED_DESTINATION, 'destination refused'); // ours, not Tether's: see the contract's comment
        _move(msg.sender, to, value);
    }

    // No return value, as Tether's.
    function transferFrom(address from, address to, uint256 value) public {
        require(!isBlackListed[from], 'sender is blacklisted');
        require(to != REFUSED_DESTINATION, 'destination refused'); // ours, not Tether's
        uint256 allowance_ = allowed[from][msg.sender];
        require(allowance_ >= value, 'allowance too low');
        if (allowance_ != type(uint256).max) allowed[from][msg.sender] = allowance_ - value;
        _move(from, to, value);
    }

    // No return value, as Tether's; a non-zero allowance changes only through 0 (Tether's race guard).
    function approve(address spender, uint256 value) public {
        require(value == 0 || allowed[msg.sender][spender] == 0, 'set the allowance to 0 first');
        allowed[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    /** New tokens to the owner's balance (Tether: "Issue a new amount of tokens"). */
    function issue(uint256 amount) public onlyOwner {
        balances[owner] += amount;
        _totalSupply += amount;
        emit Issue(amount);
    }

    function getBlackListStatus(address maker) external view returns (bool) {
        return isBlackListed[maker];
    }

    function addBlackList(address evilUser) public onlyOwner {
        isBlackListed[evilUser] = true;
        emit AddedBlackList(evilUser);
    }

    function removeBlackList(address clearedUser) public onlyOwner {
        isBlackListed[clearedUser] = false;
        emit RemovedBlackList(clearedUser);
    }

    /** Burns the whole balance of a blacklisted address. */
    function destroyBlackFunds(address blackListedUser) public onlyOwner {
        require(isBlackListed[blackListedUser], 'not blacklisted');
        uint256 dirtyFunds = balances[blackListedUser];
        balances[blackListedUser] = 0;
        _totalSupply -= dirtyFunds;
        emit DestroyedBlackFunds(blackListedUser, dirtyFunds);
    }

    function _move(address from, address to, uint256 value) private {
        require(balances[from] >= value, 'balance too low');
        balances[from] -= value;
        balances[to] += value;
        emit Transfer(from, to, value);
    }
}
