package dev.workcell.agent.provider.client;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Turns for APIs that want user and assistant to alternate (Anthropic, Gemini): consecutive messages
 * of one role (tool results after tool results, a steer after a result) merge into one turn.
 */
final class AlternatingTurns {

  private final ArrayNode turns;
  private final String partsField;
  private ObjectNode last;

  /** {@code partsField}: where a turn holds its pieces ("content" for Anthropic, "parts" for Gemini). */
  AlternatingTurns(ArrayNode turns, String partsField) {
    this.turns = turns;
    this.partsField = partsField;
  }

  /** The pieces of the turn a message of {@code role} goes in: the last turn's, or a new turn's. */
  ArrayNode parts(String role) {
    if (last == null || !last.path("role").asText().equals(role)) {
      last = turns.addObject().put("role", role);
      last.putArray(partsField);
    }
    return (ArrayNode) last.get(partsField);
  }
}
