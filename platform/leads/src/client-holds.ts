/**
 * The booking times each client (IP and site) holds with partial leads, so one connection cannot
 * fill a location's diary with forms it never finishes (decision record 0004). It remembers which
 * leads took a client's holds and until when. A lead that was completed, dropped its time or lost
 * it meanwhile still counts here until the diary is asked (`keepOnly`), which the lead service does
 * only when a client reaches the cap. In memory and per process, like the rate limit: holds last
 * 30 minutes, so a restart forgets little. `max` 0 switches it off.
 */
export class ClientHolds {
  /** Per client, lead id → held until (ms since the epoch). */
  private readonly byClient = new Map<string, Map<number, number>>();
  /** Which client a lead's hold counts against: a lead renewed from another address moves there. */
  private readonly clientOfLead = new Map<number, string>();
  private lastSweep = 0;

  constructor(
    readonly max: number,
    private readonly sweepEveryMs = 30 * 60_000,
    /** Clients remembered at most; a new one beyond it pushes out the one seen longest ago, so memory stays bounded. */
    readonly maxClients = 50_000,
  ) {}

  /**
   * Counts the lead's hold against the client when the client is under the cap (a lead already
   * counted there just renews); otherwise says when the client's first hold runs out. Synchronous,
   * so two requests of one client racing for its last hold cannot both have it.
   */
  tryHold(client: string, leadId: number, heldUntil: number, now: number): { ok: true } | { ok: false; retryAfterMs: number } {
    if (this.max <= 0) return { ok: true };
    this.sweep(now);
    const leads = this.liveLeads(client, now);
    if (!leads.has(leadId) && leads.size >= this.max) return { ok: false, retryAfterMs: Math.max(1, Math.min(...leads.values()) - now) };
    const previous = this.clientOfLead.get(leadId);
    if (previous !== undefined && previous !== client) this.byClient.get(previous)?.delete(leadId);
    leads.set(leadId, heldUntil);
    if (!this.byClient.has(client) && this.byClient.size >= this.maxClients) this.forget(this.byClient.keys().next().value!);
    this.byClient.set(client, leads);
    this.clientOfLead.set(leadId, client);
    return { ok: true };
  }

  private forget(client: string) {
    for (const leadId of this.byClient.get(client)?.keys() ?? []) this.clientOfLead.delete(leadId);
    this.byClient.delete(client);
  }

  /** How many clients are remembered. */
  get clientCount(): number {
    return this.byClient.size;
  }

  /** The leads counted against the client now. */
  leadsOf(client: string, now: number): number[] {
    return [...this.liveLeads(client, now).keys()];
  }

  /** Stops counting the client's leads that are not in `stillHolding` (the diary's answer). */
  keepOnly(client: string, stillHolding: ReadonlySet<number>) {
    const leads = this.byClient.get(client);
    if (!leads) return;
    for (const leadId of leads.keys()) {
      if (stillHolding.has(leadId)) continue;
      leads.delete(leadId);
      this.clientOfLead.delete(leadId);
    }
  }

  private liveLeads(client: string, now: number): Map<number, number> {
    const leads = this.byClient.get(client) ?? new Map<number, number>();
    for (const [leadId, until] of leads) {
      if (until > now) continue;
      leads.delete(leadId);
      this.clientOfLead.delete(leadId);
    }
    return leads;
  }

  /** Forgets clients whose holds have all run out, at most once per `sweepEveryMs`. */
  private sweep(now: number) {
    if (now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    for (const client of [...this.byClient.keys()]) if (this.liveLeads(client, now).size === 0) this.byClient.delete(client);
  }
}
