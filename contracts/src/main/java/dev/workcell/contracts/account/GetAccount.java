package dev.workcell.contracts.account;

/** Read one account by id (the gateway does this on every request: status and role are read fresh). */
public record GetAccount(String id) {}
