package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Searches text files beneath {@code path} (a directory or one file) for {@code query}: an RE2
 * regular expression when {@code regex}, else a literal. {@code include} is an optional file-name
 * glob ({@code *.py}); {@code matchPerLine} false reports each file once; {@code maxResults} 1..1000
 * (null: 50). Skips binary files, files over 1 MB and {@code node_modules .git}.
 */
public record GrepFiles(SandboxRef sandbox, String path, String query, boolean regex, boolean caseInsensitive,
    String include, boolean matchPerLine, Integer maxResults) {}
