/** Shapes shared by the simulator's route modules. */

/** What a simulator handler answers: the HTTP status and the JSON body to send. */
export interface SimReply {
  status: number;
  body: unknown;
}

/** A merchant account of the simulator, as created by POST /_sim/merchants. */
export interface SimMerchant {
  id: number;
  name: string;
  apiKey: string;
  mode: "test" | "live";
  currencies: string[];
  card: boolean;
  wallet: boolean;
  void: boolean;
  successUrl: string | null;
  failureUrl: string | null;
  webhookUrl: string | null;
}
