package dev.workcell.contracts.sandbox;

/**
 * The task's preview. {@code containerPort} is the port inside the sandbox; {@code hostAddress} and
 * {@code hostPort} are where Docker published it (loopback by default) for preview-proxy to reach.
 */
public record PreviewState(String taskId, boolean running, String command, int containerPort, String hostAddress, Integer hostPort) {}
