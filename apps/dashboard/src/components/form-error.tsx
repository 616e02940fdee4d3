import type { FormFailure } from '../form-errors';

/** The server's refusal at the foot of a form, in its own words. */
export function FormError({ failure }: { failure?: FormFailure }) {
  if (!failure) return null;
  return (
    <p class="form-error" role="alert">
      {failure.message}
    </p>
  );
}
