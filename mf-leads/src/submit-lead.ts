/** SPEC §8: with no error text from the server, this is what the shopper is told. */
export const submitFailureText = 'An error occurred when submitting this form';
