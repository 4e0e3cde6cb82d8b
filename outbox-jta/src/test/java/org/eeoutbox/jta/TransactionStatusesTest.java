package org.eeoutbox.jta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.transaction.Status;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The status names in error messages, checked against every constant {@link Status} declares. */
class TransactionStatusesTest {

    static Stream<Field> statusConstants() {
        return Arrays.stream(Status.class.getFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()) && field.getType() == int.class);
    }

    @ParameterizedTest
    @MethodSource("statusConstants")
    void eachStatusIsNamedAsItsConstant(Field constant) throws IllegalAccessException {
        assertEquals(constant.getName(), TransactionStatuses.name(constant.getInt(null)));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 10, 42})
    void aCodeStatusDoesNotDeclareIsShownAsItsNumber(int code) {
        assertEquals("status " + code, TransactionStatuses.name(code));
    }
}
