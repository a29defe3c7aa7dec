package dev.workcell.gateway.file.rest;

import dev.workcell.contracts.Bulk;

/**
 * Saves a text file. With {@code expectedVersion} (from the read) the save fails with 409
 * {@code conflict} when the file changed meanwhile; without it the save is unconditional.
 */
public record SaveFileRequest(String path, @Bulk String content, String expectedVersion, Boolean createParents) {}
