package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import java.util.List;

/** The answer to {@link SandboxSubjects#LIST}. */
public record SandboxList(List<SandboxState> sandboxes) {}
