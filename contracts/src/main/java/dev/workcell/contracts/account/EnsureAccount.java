package dev.workcell.contracts.account;

import dev.workcell.contracts.Actor;

/** Create the account if missing (with {@code role}); an existing account keeps its role. */
public record EnsureAccount(String username, Actor.Role role) {}
