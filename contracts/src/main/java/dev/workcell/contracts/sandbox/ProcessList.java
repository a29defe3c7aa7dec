package dev.workcell.contracts.sandbox;

import java.util.List;

/** Without output. */
public record ProcessList(List<ProcessView> processes) {}
