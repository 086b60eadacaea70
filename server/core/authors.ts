// Who wrote something a person or an agent can read back: `user` for a person (the install token,
// a browser), else the writing pane's id. One spelling for thread messages, acknowledgements,
// reviews, review comments and plan reviews, so a caller can compare any of them with a pane id.
export const USER_AUTHOR = "user";

export const authorOf = (paneId: string | null): string => paneId ?? USER_AUTHOR;
