// JSON API client: every request carries Telegram's initData (Authorization: tma ...).
import { initData } from "./telegram.js";

export class ApiError extends Error {
  constructor(status, code, message, description) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.description = description; // a refusal's {code, params}: its message is that sentence
  }
}

export async function request(method, path, body) {
  const headers = { Authorization: `tma ${initData}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  let data = null;
  try { data = await response.json(); } catch (e) { /* not JSON */ }
  if (!response.ok || !data || data.ok === false) {
    const err = (data && data.error) || {};
    throw new ApiError(response.status, err.code || "http_error", err.message, (err.details || {}).description);
  }
  return data;
}
