import { fieldError } from "./invoices-validation.js";

/**
 * Each merchant's client book. "Client details sent with an invoice update the stored client when
 * needed": a client is found by its id when one is sent, otherwise by e-mail (case-insensitive);
 * the fields sent overwrite the stored ones, fields left out keep their stored values, and an
 * unknown e-mail creates a new client.
 */

export interface ClientDetails {
  id?: number;
  name?: string;
  email: string;
  phone?: string;
  address?: string;
}

/** Invoices hold the stored object itself, so they show the client as it is now. */
export interface StoredClient {
  readonly id: number;
  readonly merchantId: number;
  name: string;
  email: string;
  phone: string;
  address: string;
}

const emailKey = (merchantId: number, email: string) => `${merchantId}:${email.trim().toLowerCase()}`;

export class ClientBook {
  private nextId = 1;
  private readonly byId = new Map<number, StoredClient>();
  private readonly byEmail = new Map<string, StoredClient>();

  clear(): void {
    this.nextId = 1;
    this.byId.clear();
    this.byEmail.clear();
  }

  snapshot(): { nextId: number; clients: StoredClient[] } {
    return { nextId: this.nextId, clients: [...this.byId.values()] };
  }

  restore(state: { nextId: number; clients: readonly StoredClient[] }): void {
    this.clear();
    for (const client of state.clients) {
      this.byId.set(client.id, client);
      this.byEmail.set(emailKey(client.merchantId, client.email), client);
    }
    this.nextId = state.nextId;
  }

  find(id: number): StoredClient | undefined {
    return this.byId.get(id);
  }

  /** Fails before changing anything, so a refused invoice leaves the book as it was. */
  upsert(merchantId: number, details: ClientDetails): StoredClient {
    const sameEmail = this.byEmail.get(emailKey(merchantId, details.email));
    if (details.id === undefined) {
      return sameEmail ? this.update(sameEmail, details) : this.create(merchantId, details);
    }
    const client = this.byId.get(details.id);
    if (!client || client.merchantId !== merchantId) throw fieldError("client.id", "no such client");
    if (sameEmail && sameEmail !== client) {
      throw fieldError("client.email", `already belongs to client ${sameEmail.id}`);
    }
    return this.update(client, details);
  }

  private create(merchantId: number, details: ClientDetails): StoredClient {
    const client: StoredClient = {
      id: this.nextId++,
      merchantId,
      name: details.name ?? "",
      email: details.email,
      phone: details.phone ?? "",
      address: details.address ?? "",
    };
    this.byId.set(client.id, client);
    this.byEmail.set(emailKey(merchantId, client.email), client);
    return client;
  }

  private update(client: StoredClient, details: ClientDetails): StoredClient {
    this.byEmail.delete(emailKey(client.merchantId, client.email));
    client.email = details.email;
    this.byEmail.set(emailKey(client.merchantId, client.email), client);
    if (details.name !== undefined) client.name = details.name;
    if (details.phone !== undefined) client.phone = details.phone;
    if (details.address !== undefined) client.address = details.address;
    return client;
  }
}
