package dev.workcell.cli;

import io.quarkus.picocli.runtime.annotations.TopCommand;
import picocli.CommandLine.Command;

@TopCommand
@Command(name = "workcell-cli", mixinStandardHelpOptions = true,
    subcommands = {TokenCommand.class, PingCommand.class},
    description = "Operator commands over the Workcell message bus (used by bin/workcell).")
public class WorkcellCommand {}
