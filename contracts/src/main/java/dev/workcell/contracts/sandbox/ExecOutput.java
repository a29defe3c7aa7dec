package dev.workcell.contracts.sandbox;

/** One chunk of a running command's output ({@code stream}: stdout or stderr), published live. */
public record ExecOutput(String execId, String stream, String data) {}
