package dev.workcell.sandbox.runtime;

/** Labels on every managed container and volume; ownership is read from them, never from names. */
public final class SandboxLabels {

  public static final String MANAGED = "dev.workcell.managed";
  public static final String TASK = "dev.workcell.task";
  public static final String OWNER = "dev.workcell.owner";
  /** sha256 of the whole effective spec, hardening version included. */
  public static final String POLICY_HASH = "dev.workcell.policy-hash";
  /** The policy the sandbox was created from (JSON), reused when a request names none. */
  public static final String POLICY = "dev.workcell.policy";
  /** The sandbox-service deployment that owns the resource (workcell.sandbox.instance). */
  public static final String INSTANCE = "dev.workcell.instance";
  /** An Open Terminal home: sha256 hex of the whole user id (homes carry no task or owner label). */
  public static final String HOME = "dev.workcell.home";

  /** A celld volume: the SHA-256 of the celld it holds (or of the image it came from, when unlabelled). */
  public static final String CELLD = "dev.workcell.celld";
  /** A short-lived helper container (filling celld's volume, handing a fresh volume to uid 1000). */
  public static final String HELPER = "dev.workcell.helper";

  private SandboxLabels() {}
}
